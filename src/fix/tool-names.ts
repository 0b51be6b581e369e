import { rx } from '../model/regex.js'

/** A tool's name inside a message: found as a whole word, or added. */

/** A tool name as a whole word of a message (`getPrice`, not the `getPrice` of `getPrices`). */
export function toolPattern(tool: string): RegExp {
    return rx('g')`(?<![\w$])${tool.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\w$])`
}

/** The message naming its tool: `… in tool <tool>` added unless the message names it already. */
export function withTool(message: string, tool: string | undefined): string {
    if (tool === undefined || tool.length === 0) return message
    return toolPattern(tool).test(message) ? message : `${message} in tool ${tool}`
}
