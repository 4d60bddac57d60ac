import type { Config } from '../config';
import { LocalDiskStorage } from './local-disk';
import { S3Storage } from './s3';
import type { Storage } from './storage';

/** The configured store; the rest of the app only sees the Storage interface. */
export function createStorage(config: Config): Storage {
  return config.storage.kind === 's3' ? new S3Storage(config.storage) : new LocalDiskStorage(config.dataDir);
}
