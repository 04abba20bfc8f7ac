import { PassThrough, type Readable } from 'node:stream';
import { lazy } from '../lazy.js';
import { ArchiveMissing, type ArchiveStorage, type ArchiveUpload } from './backup-storage.js';

/** The AWS SDK, loaded only by a server whose archives go to S3. */
const s3Sdk = lazy(() => import('@aws-sdk/client-s3'));
const uploads = lazy(() => import('@aws-sdk/lib-storage'));

/** Parts of a multipart upload: S3's smallest, so an upload holds at most a few of them in memory. */
const PART_SIZE = 5 * 1024 * 1024;

/**
 * Archives in S3-compatible storage, as objects `<prefix>/<backup id>.ndjson.gz` of `s3://bucket/prefix`, through
 * the AWS SDK v3: credentials and region from the usual AWS variables (`AWS_ACCESS_KEY_ID`, `AWS_REGION`, …),
 * the endpoint from `endpoint` (then addressed by path, as MinIO and moto want) or `AWS_ENDPOINT_URL`. An archive is
 * streamed up in a multipart upload, which makes no object until it completes: a stopped backup leaves none.
 */
export class S3Archives implements ArchiveStorage {
  private readonly bucket: string;
  private readonly prefix: string;
  private client: import('@aws-sdk/client-s3').S3Client | undefined;

  constructor(
    url: string,
    private readonly endpoint: string | undefined,
  ) {
    const { host, pathname } = new URL(url);
    this.bucket = host;
    this.prefix = pathname.replace(/^\/+|\/+$/g, '');
  }

  private keyOf(backupId: string): string {
    return this.prefix ? `${this.prefix}/${backupId}.ndjson.gz` : `${backupId}.ndjson.gz`;
  }

  private async s3() {
    const sdk = await s3Sdk();
    this.client ??= new sdk.S3Client({
      region: process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
      ...(this.endpoint ? { endpoint: this.endpoint } : {}),
      forcePathStyle: Boolean(
        this.endpoint || process.env.AWS_ENDPOINT_URL || process.env.AWS_ENDPOINT_URL_S3,
      ),
    });
    return { sdk, client: this.client };
  }

  async create(backupId: string): Promise<ArchiveUpload> {
    const [{ client }, { Upload }] = await Promise.all([this.s3(), uploads()]);
    const stream = new PassThrough();
    const upload = new Upload({
      client,
      params: {
        Bucket: this.bucket,
        Key: this.keyOf(backupId),
        Body: stream,
        ContentType: 'application/gzip',
      },
      partSize: PART_SIZE,
      queueSize: 2,
    });
    const done = upload.done();
    // A refused upload stops the writer at its next write instead of leaving it waiting for a drain.
    done.catch((error: unknown) => stream.destroy(error as Error));
    return {
      stream,
      commit: async () => {
        await done;
      },
      abort: async () => {
        await upload.abort().catch(() => {});
        await done.catch(() => {});
      },
    };
  }

  async open(backupId: string): Promise<Readable> {
    const { sdk, client } = await this.s3();
    try {
      const answer = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(backupId) }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === 'NotFound')
        throw new ArchiveMissing(backupId);
      throw error;
    }
  }

  async remove(backupId: string): Promise<void> {
    const { sdk, client } = await this.s3();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(backupId) }));
  }

  /** Closes the SDK's connections. */
  close(): void {
    this.client?.destroy();
  }
}
