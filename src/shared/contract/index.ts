export * from './common';
export * from './auth';
export * from './tokens';
export * from './senders';
