/**
 * The host's HTTP client as the pretest sees it: the library's one {@link HttpPort}. The pretest never
 * talks to the network itself; it builds requests and passes them to the port.
 */
export type { HttpPort, HttpRequest, HttpResponse } from '../ports/types.js'
