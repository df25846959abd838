// The part of the en dictionary that /login and the start-up need; the rest loads with the first
// other page (locale.ts). Keep in step with BOOT_GROUPS there.
import common from '../../i18n/en/common';
import auth from '../../i18n/en/auth';
import validation from '../../i18n/en/validation';
import errors from '../../i18n/en/errors';
import shell from '../../i18n/en/shell';
import guides from '../../i18n/en/guides';

export default { common, auth, validation, errors, shell, guides };
