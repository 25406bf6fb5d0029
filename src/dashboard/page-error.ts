/** A refusal shown as a page (a form from elsewhere, an unknown page): status and a message. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'PageError';
  }
}

/** What a refusal of a service says to the user: its message, and its hint when it has one. */
export function describeError(error: { message: string; hint?: string | undefined }): string {
  return error.hint ? `${error.message} ${error.hint}` : error.message;
}
