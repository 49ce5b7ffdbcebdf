/**
 * An error answer raised from deep inside a handler: the app's error handler turns it
 * into `{statusCode, error, message, fields?}`.
 */
export class HttpProblem extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}

export const notFound = (resource: string, id: string) =>
  new HttpProblem(404, `There is no ${resource} with id ${id} in your organisation.`);

/** 400 naming the field that refers to something missing or unusable. */
export const badReference = (field: string, message: string) =>
  new HttpProblem(400, message, { [field]: message });

export const conflict = (message: string, fields?: Record<string, string>) =>
  new HttpProblem(409, message, fields);
