import type Stripe from 'stripe';

/**
 * A Stripe object as the `stripe` package types it (generated from Stripe's published OpenAPI
 * description), every field optional at every depth: what the local Stripe answers and what the
 * tests' events carry is checked at compile time against Stripe's own field names and types, so a
 * misspelt or mistyped field in a fixture fails the typecheck instead of testing a shape Stripe never
 * sends.
 */
export type StripeShape<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends (infer U)[]
    ? StripeShape<U>[]
    : T extends object
      ? { [K in keyof T]?: StripeShape<T[K]> }
      : T;

/** The envelope of every Stripe event (`Stripe.EventBase` without its typed `data`). */
export type StripeEventShape<T> = StripeShape<Omit<Stripe.EventBase, 'data' | 'type'>> & {
  type: Stripe.Event.Type;
  data: { object: StripeShape<T> };
};
