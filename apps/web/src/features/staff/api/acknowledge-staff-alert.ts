import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZStaffAlert, type TStaffAlert } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { auditLogKey } from './get-audit-log.ts';
import { staffAlertsKey } from './get-staff-alerts.ts';

/** POST /management/alerts/{id}/acknowledge: records who acknowledged it and when (the first acknowledgement stays). */
export function acknowledgeStaffAlert(id: string): Promise<TStaffAlert> {
  return api.connect.post(`/management/alerts/${encodeURIComponent(id)}/acknowledge`, undefined, {
    schema: ZStaffAlert,
  });
}

export function useAcknowledgeStaffAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeStaffAlert,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: staffAlertsKey }),
        // Acknowledging is a staff action the log records (STAFF_ALERT_ACKNOWLEDGED).
        queryClient.invalidateQueries({ queryKey: auditLogKey }),
      ]),
  });
}
