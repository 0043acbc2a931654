import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog } from '@connect/db';
import {
  ZAvailableFeatures,
  ZBetaFeature,
  ZBetaFeatureList,
  ZManagedBetaFeature,
  type TAvailableFeatures,
  type TBetaFeatureForm,
} from '@connect/shared';
import type { TestContext } from '../../../test/helpers.ts';

/** Whoever calls: a session's authorization header. */
export type Caller = { headers: { authorization: string } };

/** Connect Beta's calls for its tests (beta.test.ts, beta-management.test.ts). */
export function betaCalls(t: TestContext) {
  const inject = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, caller: Caller, payload?: object) =>
    t.app.inject({ method, url: `/api/connect${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });
  return {
    inject,
    async available(caller: Caller): Promise<TAvailableFeatures> {
      const res = await inject('GET', '/available', caller);
      expect(res.statusCode, res.body).toBe(200);
      return ZAvailableFeatures.parse(res.json()).availableFeatures;
    },
    async list(caller: Caller) {
      const res = await inject('GET', '/beta/features', caller);
      expect(res.statusCode, res.body).toBe(200);
      return ZBetaFeatureList.parse(res.json()).features;
    },
    async optIn(caller: Caller, id: string) {
      const res = await inject('PUT', `/beta/features/${id}/optin`, caller);
      expect(res.statusCode, res.body).toBe(200);
      return ZBetaFeature.parse(res.json());
    },
    async optOut(caller: Caller, id: string) {
      const res = await inject('DELETE', `/beta/features/${id}/optin`, caller);
      expect(res.statusCode, res.body).toBe(200);
      return ZBetaFeature.parse(res.json());
    },
    /** A new catalogue entry (a unique name) made by `admin`. */
    async create(admin: Caller, form: Partial<TBetaFeatureForm> = {}) {
      const res = await inject('POST', '/management/beta-features', admin, {
        name: `Beta ${randomUUID().slice(0, 8)}`,
        description: 'Try it before everyone else.',
        featureKey: 'bridge',
        access: 'OPEN',
        ...form,
      });
      expect(res.statusCode, res.body).toBe(201);
      return ZManagedBetaFeature.parse(res.json());
    },
    /** The audit entries about a record, oldest first. */
    audit(recordType: string, recordId: string) {
      return t.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.recordType, recordType), eq(auditLog.recordId, recordId)))
        .orderBy(asc(auditLog.id));
    },
  };
}
