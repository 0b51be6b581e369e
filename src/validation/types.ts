/**
 * The shape of an ajv error and of a standalone validator, declared here so no ajv type reaches
 * the public declarations and ajv itself is needed only to generate `generated/*.ts`.
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

/** A precompiled validator: returns whether `data` is valid and leaves the reasons on `errors`. */
export interface ValidateFunction {
    (data: unknown): boolean
    errors?: ErrorObject[] | null
}
