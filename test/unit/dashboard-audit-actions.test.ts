import { AUDIT_ACTIONS } from '../../src/modules/audit/audit-log';
import { AUDIT_LOG_ACTIONS } from '../../dashboard/src/audit-actions';

/** The dashboard's Audit log filter offers exactly the actions the service records (it missed three once). */
test('the dashboard’s audit actions are the server’s, in its order', () => {
  expect(AUDIT_LOG_ACTIONS).toEqual([...AUDIT_ACTIONS]);
});
