/** SMS encoding, segments and shorthands, shared by the service and the dashboard (no Node-only APIs). */
export { GSM_BASIC_CHARACTERS, GSM_EXTENSION_CHARACTERS, isGsmCharacter } from './gsm-charset';
export { classify, measure, segmentsOf } from './sms-segments';
export type { MeasureOptions, SmsEncoding, SmsMeasurement } from './sms-segments';
export { gsmLookalikes, nonGsmCharacters, replaceLookalikes } from './gsm-lookalikes';
export type { GsmLookalike, NonGsmCharacter } from './gsm-lookalikes';
export { stripForUtf8 } from './utf8-strip';
export { fieldUses, parseShorthands, render, renderTokens, shorthandNames } from './shorthands';
export type { ShorthandToken, ShorthandValues } from './shorthands';
export { measureRendered } from './measure-rendered';
export type { RenderedMeasureOptions } from './measure-rendered';
export { plainUrls, replacePlainUrl, suggestLinkName } from './plain-urls';
export type { PlainUrl } from './plain-urls';
