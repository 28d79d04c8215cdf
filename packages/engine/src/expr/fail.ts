// Error constructors of the query language: every error names the query, position and token.
import { HaloclineError } from '../errors.js';

/** Where in the query an error is: the offending token and its 0-based offset. */
export interface Where {
  readonly pos: number;
  readonly token: string;
}

/** A QuerySyntax error; `message` should say what was expected. */
export function syntaxError(query: string, where: Where, message: string): HaloclineError {
  return new HaloclineError('QuerySyntax', message, { query, position: where.pos, token: where.token });
}

/** A QueryType error, with the column it is about when there is one. */
export function typeError(query: string, where: Where, message: string, column?: string): HaloclineError {
  const context = { query, position: where.pos, token: where.token };
  return new HaloclineError('QueryType', message, column === undefined ? context : { ...context, column });
}

/** How a token is quoted in messages; the end of the query has no text. */
export function describeToken(token: string): string {
  return token === '' ? 'end of query' : `token '${token}'`;
}
