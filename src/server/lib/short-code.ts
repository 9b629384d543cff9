/** The shared short code every team sends from and receives at (interface §2.6): keyword replies go out from it. */
export const SHORT_CODE_SENDER = '88440';
