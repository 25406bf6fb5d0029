import { Type, type TSchema } from '@fastify/type-provider-typebox';

/** Schema pieces every capability's routes share, written once. */

/** A value or null (a field the resource always has, empty as null). */
export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The path parameters of a resource route: `/:id`. */
export const idParams = Type.Object({ id: Type.String({ maxLength: 255 }) });
