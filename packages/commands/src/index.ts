/** Command handling shared by the command API and the operators' tools. */
export * from './handle';
export * from './ids';
export * from './command-service';
