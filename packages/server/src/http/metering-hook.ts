import type { FastifyInstance } from 'fastify';
import type { UsageMeter } from '../services/usage-meter.js';

/**
 * Meters every data-plane request that passed authentication (it has a principal) against its cluster, after the
 * answer is sent; refused credentials cost the cluster nothing. The meter's counts are written when the app
 * closes, before the storage does.
 */
export function registerMetering(app: FastifyInstance, meter: UsageMeter): void {
  app.addHook('onResponse', (request, _reply, done) => {
    const principal = request.principal;
    if (principal !== undefined) meter.count(principal.clusterId, 'requests');
    done();
  });
  app.addHook('onClose', () => meter.close());
}
