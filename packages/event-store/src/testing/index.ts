/**
 * @sinilill/event-store/testing: test helpers that production code never imports (the KurrentDB
 * client's in-memory stand-in). Kept off the package's main index so that a service cannot pick
 * it up by accident.
 */
export { KurrentDbStandIn, kurrentDbStandInStore } from './kurrentdb-stand-in';
