/**
 * @sinilill/domain — the pure rules of the product: edition and route, progress math, exact
 * distances, dates, and the team / participant / entry / account / settings / payment deciders
 * with their error codes and the fee rules.
 * Test helpers are not exported here: import '@sinilill/domain/testing'.
 */
export * from './errors';
export * from './events';
export type { ActingUser, Decider, DecisionContext } from './decider';
export * from './edition';
export * from './progress';
export * from './distance';
export * from './dates';
export * from './language';
export { isPrivileged, mayActForTeam } from './actors';
export { textLength } from './validation';
export * from './team';
export * from './participant';
export * from './entry';
export * from './account';
export * from './payment';
export * from './operations';
export * from './draw';
