export { MemoryService, type MemoryServiceOptions } from './memory-service';
