/** Request and answer schemas (TypeBox) shared by the services and the web client. */
export * from './stats';
export * from './entries';
export * from './session';
export * from './auth';
export * from './team';
export * from './news';
export * from './history';
export * from './admin-queries';
export * from './admin-commands';
export * from './operations';
export * from './payments';
export * from './text';
export * from './parked';
export * from './pages';
