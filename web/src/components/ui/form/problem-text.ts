import type { TFunction } from 'i18next';
import { errorText } from '../../../lib/errors/catalogue';
import type { FieldProblem } from '../../../lib/form-validation';

/** The message for a field's problem in `t`'s language. */
export function problemText(t: TFunction, problem: FieldProblem): string {
  switch (problem.kind) {
    case 'required':
      return t('form.required', { ns: 'common' });
    case 'tooLong':
      return t('form.tooLong', { ns: 'common', max: problem.max });
    case 'code':
      return errorText(t, problem.code);
    case 'decimal':
      return t(`form.decimal.${problem.problem}`, { ns: 'common', max: problem.maxDecimals });
  }
}

/**
 * Moves the focus to the form control named `name` (the first of a radio group), so that a user
 * who submitted an invalid form lands on the first problem.
 */
export function focusField(form: HTMLFormElement | null, name: string | undefined): void {
  if (!form || !name) return;
  const item = form.elements.namedItem(name);
  const target = item instanceof RadioNodeList ? item[0] : item;
  if (target instanceof HTMLElement) target.focus();
}
