/**
 * Registers the domain's upcasters (EVENT_UPCASTERS of @sinilill/domain) in this process, so that
 * every store of every service and tool reads current payloads without wiring of its own. Imported
 * for its effect by this package's index.
 */
import { EVENT_UPCASTERS } from '@sinilill/domain';
import { registerUpcasters } from './upcasters';

registerUpcasters(EVENT_UPCASTERS);
