import { DeputyError } from '../../shared/contract';

/** A number of a cursor as Deputy writes it: no leading zero, none past what is exact. */
export const isWrittenAsIs = (digits: string): boolean => String(Number(digits)) === digits;

/** A cursor of the right form that no page of the export could have handed out. */
export const notHandedOut = (): DeputyError =>
  new DeputyError('invalid_input', 'That cursor is not one an earlier page of this export handed out.');
