/** User-defined mappings (spec 04 §7). The router (../router.ts) is the entry point. */
export { buildMapperSpecs, parseDefinition, configEntries, type MapperSpec, type Definition } from './config.ts';
export { Mapper, userDataOf, type UserData, type TableOpener } from './mapper.ts';
export { TableMerge } from './tableMerge.ts';
export { BAD_MAPPING_PREFIX } from './errors.ts';
