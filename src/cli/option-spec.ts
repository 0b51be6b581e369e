// The shape of a row of the command-line table (options.ts) and the commands the rows name: the
// table's parts (options-*.ts) are written against it.

/** The kind of a config value: `number` options are strings on the command line, numbers in the file. */
export type ConfigKind = 'string' | 'boolean' | 'number' | 'strings'

/** The commands of the CLI, in the order the usage lists them. */
export const COMMANDS = [
    'grade',
    'check',
    'affected',
    'validate',
    'emit-prompts',
    'consume-scores',
    'rebuild-index',
    'export',
    'report',
    'rubric',
    'version'
] as const
export type Command = (typeof COMMANDS)[number]

/** Every command: the options any command takes (the config file, help). */
export const ALL = COMMANDS
/** The options of grading: `grade` and `check` take them alike. */
export const GRADING = ['grade', 'check'] as const

export interface OptionSpec {
    readonly type: 'string' | 'boolean'
    readonly multiple?: true
    readonly short?: string
    /**
     * Settable in the config file (key: the option in camelCase), with its kind, whether it is a path,
     * and whether that path must already exist (`input`; the runtime's folders have checks of their own).
     */
    readonly config?: {
        readonly kind: ConfigKind
        readonly path?: true
        readonly input?: 'folder' | 'file'
        readonly values?: readonly string[]
    }
    /** The commands that read it. */
    readonly commands: readonly Command[]
    /** The value's placeholder in the help (`<dir>`). */
    readonly arg?: string
    /** What it does, in a sentence; `per` words it for one command where it means something else there. */
    readonly help: string
    readonly per?: Partial<Readonly<Record<Command, string>>>
}
