/**
 * Mobile money operators by the names people know them by. The Fleet API speaks in codes
 * (`VODACOM_MPESA`); forms and approval screens show the name, and the code stays wherever the
 * value sent to the API is shown. A code this list does not know is shown as it is.
 */
const OPERATOR_NAMES: Readonly<Record<string, string>> = {
  VODACOM_MPESA: 'Vodacom M-Pesa',
  ORANGE_MONEY: 'Orange Money',
  AIRTEL_MONEY: 'Airtel Money',
  AFRICELL_MONEY: 'Africell Money',
  MTN_MOMO: 'MTN MoMo',
  MOOV_MONEY: 'Moov Money',
};

export function operatorName(code: string): string {
  return Object.hasOwn(OPERATOR_NAMES, code.toUpperCase()) ? OPERATOR_NAMES[code.toUpperCase()]! : code;
}
