import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Download } from './download-threads';
import { contentDisposition, DownloadAborted } from './workbook';

const TYPES = {
  csv: 'text/csv; charset=utf-8',
  sav: 'application/x-spss-sav',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/**
 * Sends a file a download thread writes (the report's, the respondents list's). `finished` runs once
 * the thread is done, however it ended (the caller's export slot is freed there). A reader gone before
 * the first bytes stops the thread too; after that, Fastify destroys the stream. Failures before the
 * first bytes reach the caller as the thread's error; later ones can only be logged.
 */
export async function sendDownload(
  req: FastifyRequest,
  reply: FastifyReply,
  file: Download,
  opts: { name: string; format: keyof typeof TYPES; what: string; finished: () => void },
): Promise<FastifyReply> {
  let sending = false;
  reply.raw.once('close', () => file.destroy());
  file.done
    .catch((err: unknown) => {
      if (err instanceof DownloadAborted) req.log.info(`${opts.what} download cancelled by the client`);
      else if (sending) req.log.error({ err }, `${opts.what} export failed`);
    })
    .finally(opts.finished);
  await file.ready;
  sending = true;
  return reply
    .header('content-disposition', contentDisposition(opts.name, opts.format))
    .header('cache-control', 'no-store')
    .type(TYPES[opts.format])
    .send(file);
}
