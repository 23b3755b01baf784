export * from './service-error';
export * from './error-classes';
export * from './convert-error';
