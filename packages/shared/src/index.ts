export * from './enums.ts';
export * from './errors.ts';
export * from './permissions.ts';
export * from './validation.ts';
