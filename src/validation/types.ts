/**
 * The shape of a schema finding and of a validator: ajv's, since the validators are ajv's standalone code generated
 * at build time (scripts/validators.mjs); declared here so no ajv type reaches the public declarations and no ajv
 * is needed at run time.
 */
export interface ErrorObject {
    readonly keyword: string
    readonly instancePath: string
    readonly schemaPath: string
    readonly params: Record<string, unknown>
    readonly propertyName?: string
    readonly message?: string
    readonly schema?: unknown
    readonly parentSchema?: unknown
    readonly data?: unknown
}

/** A validator: returns whether `data` is valid and leaves the reasons on `errors`. */
export interface ValidateFunction {
    (data: unknown): boolean
    errors?: ErrorObject[] | null
}
