import type { Translation } from '../i18n-types';

// English texts of the pricing screens; must have every key of ru/pricing.ts.
const pricing: Translation['pricing'] = {};
export default pricing;
