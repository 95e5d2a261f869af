/** What `clusterset import` writes where no dump tells the value; `validate` reports it (unset-value). */
export const UNSET = '<unset>';
