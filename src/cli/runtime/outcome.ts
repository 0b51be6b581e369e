// What a runtime child's answers become in the parent: every outcome checked, every failure an
// outcome that says what went wrong (the port never throws from `run`).

import type { RuntimeTestOutcome } from '../../ports/types.js'

/** A failed test: no data, no HTTP status, the reason in words. */
export const failure = (message: string): RuntimeTestOutcome => ({ ok: false, httpStatus: null, messages: [message] })

/** An outcome as the child sent it, checked: anything else is a failure that says so. */
export function checkedOutcome(value: unknown): RuntimeTestOutcome {
    if (value === null || typeof value !== 'object') return failure('the runtime process sent no outcome object')
    const o = value as Record<string, unknown>
    const messages = Array.isArray(o.messages)
        ? o.messages.filter((m): m is string => typeof m === 'string').slice(0, 20)
        : []
    const doors = Array.isArray(o.networkNotGranted)
        ? o.networkNotGranted.filter((d): d is string => typeof d === 'string').slice(0, 20)
        : []
    return {
        // A test that tried a closed door is never a success, whatever the child said.
        ok: o.ok === true && doors.length === 0,
        ...(Object.hasOwn(o, 'data') ? { data: o.data } : {}),
        httpStatus: typeof o.httpStatus === 'number' && Number.isInteger(o.httpStatus) ? o.httpStatus : null,
        messages,
        ...(doors.length > 0 ? { networkNotGranted: doors } : {})
    }
}
