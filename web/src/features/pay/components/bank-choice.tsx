import type { PaymentMethod } from '@sinilill/contracts';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import formStyles from '../../../components/ui/form/form.module.css';
import styles from './pay.module.css';

export interface BankChoiceProps {
  /** The chosen country's banks, in the order shown (uiPosition). */
  methods: readonly PaymentMethod[];
  /** The chosen bank's code, or null. */
  chosen: string | null;
  onChoose: (code: string) => void;
  /** The first bank's button, to move the focus to when none is chosen (NOT_SELECTED). */
  firstRef?: Ref<HTMLButtonElement>;
}

/**
 * The bank buttons of the fee form (spec §2 "bank method buttons with logos"): one toggle button
 * per bank with its logo and name, aria-pressed on the chosen one, in a fieldset whose legend
 * names the choice.
 */
export function BankChoice({ methods, chosen, onChoose, firstRef }: BankChoiceProps) {
  const { t } = useTranslation('pay');
  return (
    <fieldset className={formStyles.fieldset}>
      <legend className={formStyles.label}>{t('fee.bank')}</legend>
      <div className={styles.banks}>
        {methods.map((method, index) => (
          <button
            key={method.code}
            ref={index === 0 ? firstRef : undefined}
            type="button"
            className={styles.bank}
            aria-pressed={method.code === chosen}
            onClick={() => onChoose(method.code)}
            data-testid="pay-method"
            data-code={method.code}
          >
            {/* The name is written next to the logo, so the logo itself is decorative (alt=""):
                a screen reader says the bank's name once, not twice. */}
            <img src={method.logoUrl} alt="" className={styles.bankLogo} loading="lazy" />
            <span>{method.name}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}
