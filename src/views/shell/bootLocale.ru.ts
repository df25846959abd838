// The part of the ru dictionary that /login and the start-up need; the rest loads with the first
// other page (locale.ts). Keep in step with BOOT_GROUPS there.
import common from '../../i18n/ru/common';
import auth from '../../i18n/ru/auth';
import validation from '../../i18n/ru/validation';
import errors from '../../i18n/ru/errors';
import shell from '../../i18n/ru/shell';
import guides from '../../i18n/ru/guides';

export default { common, auth, validation, errors, shell, guides };
