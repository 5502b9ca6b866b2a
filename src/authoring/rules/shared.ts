// Facts more than one rule checks against.
import { categoryCode } from '../../domain/mica.ts';

export const EU_MEMBER_STATES = 27;
export const CATEGORY_ORDER = categoryCode.options;
