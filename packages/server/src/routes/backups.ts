import type { backupRoutes } from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import type { RouteHandlers } from '../http/route-call.js';
import type { BackupSchedules } from '../services/backup-schedules.js';
import type { BackupCaller, BackupService } from '../services/backups.js';

function caller(request: FastifyRequest): BackupCaller {
  return { sessionId: request.session!.sessionId, userId: request.session!.userId };
}

/** `/api/backups/*`: a session, on clusters the user is a member of. */
export function backupHandlers(
  backups: BackupService,
  schedules: BackupSchedules,
): RouteHandlers<typeof backupRoutes> {
  return {
    'backups.getSchedule': ({ request, query }) => schedules.get(caller(request), query.clusterId),
    'backups.setSchedule': ({ request, body }) => schedules.set(caller(request), body),
    'backups.create': ({ request, body }) => backups.create(caller(request), body?.clusterId),
    'backups.list': ({ request, query }) => backups.list(caller(request), query.clusterId),
    'backups.get': ({ request, params }) => backups.get(caller(request), params.id),
    'backups.delete': ({ request, params }) => backups.delete(caller(request), params.id),
    'backups.download': async ({ request, reply, params }) => {
      const archive = await backups.download(caller(request), params.id);
      return reply
        .code(200)
        .type('application/gzip')
        .header('content-length', archive.sizeBytes)
        .header('content-disposition', `attachment; filename="${archive.name}"`)
        .send(archive.stream);
    },
    'backups.restore': ({ request, params, body }) =>
      backups.restore(caller(request), params.id, body?.targetClusterId),
  };
}
