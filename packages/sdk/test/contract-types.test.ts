import type * as Contract from '@dataplatform/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type * as Sdk from '../src/contract-types.js';

interface Order {
  item: string;
}

// Checked by `tsc` (the package typecheck): the written-out types are the contract's, member for member.
describe('contract types', () => {
  it('are the same as the contract derives from its schemas', () => {
    expectTypeOf<Sdk.ActivityEntry>().toEqualTypeOf<Contract.ActivityEntry>();
    expectTypeOf<Sdk.ApiKey>().toEqualTypeOf<Contract.ApiKey>();
    expectTypeOf<Sdk.ApiKeyCreate>().toEqualTypeOf<Contract.ApiKeyCreate>();
    expectTypeOf<Sdk.ApiKeyList>().toEqualTypeOf<Contract.ApiKeyList>();
    expectTypeOf<Sdk.ApiKeyUsageEntry>().toEqualTypeOf<Contract.ApiKeyUsageEntry>();
    expectTypeOf<Sdk.ApiKeyWithSecret>().toEqualTypeOf<Contract.ApiKeyWithSecret>();
    expectTypeOf<Sdk.AuthSession>().toEqualTypeOf<Contract.AuthSession>();
    expectTypeOf<Sdk.BillingAccount>().toEqualTypeOf<Contract.BillingAccount>();
    expectTypeOf<Sdk.CollectionQuery>().toEqualTypeOf<Contract.CollectionQuery>();
    expectTypeOf<Sdk.CurrentSession>().toEqualTypeOf<Contract.CurrentSession>();
    expectTypeOf<Sdk.DeletedResponse>().toEqualTypeOf<Contract.DeletedResponse>();
    expectTypeOf<Sdk.DeviceAuthorization>().toEqualTypeOf<Contract.DeviceAuthorization>();
    expectTypeOf<Sdk.DeviceDecision>().toEqualTypeOf<Contract.DeviceDecision>();
    expectTypeOf<Sdk.DocumentPage>().toEqualTypeOf<Contract.DocumentPage>();
    expectTypeOf<Sdk.ErrorCode>().toEqualTypeOf<Contract.ErrorCode>();
    expectTypeOf<Sdk.ErrorResponse>().toEqualTypeOf<Contract.ErrorResponse>();
    expectTypeOf<Sdk.ImportFormat>().toEqualTypeOf<Contract.ImportFormat>();
    expectTypeOf<Sdk.IpAllowlist>().toEqualTypeOf<Contract.IpAllowlist>();
    expectTypeOf<Sdk.Job>().toEqualTypeOf<Contract.Job>();
    expectTypeOf<Sdk.JobList>().toEqualTypeOf<Contract.JobList>();
    expectTypeOf<Sdk.JobRowError>().toEqualTypeOf<Contract.JobRowError>();
    expectTypeOf<Sdk.JobStatus>().toEqualTypeOf<Contract.JobStatus>();
    expectTypeOf<Sdk.LoggedOut>().toEqualTypeOf<Contract.LoggedOut>();
    expectTypeOf<Sdk.Passkey>().toEqualTypeOf<Contract.Passkey>();
    expectTypeOf<Sdk.PasskeyList>().toEqualTypeOf<Contract.PasskeyList>();
    expectTypeOf<Sdk.PasskeyOptions>().toEqualTypeOf<Contract.PasskeyOptions>();
    expectTypeOf<Sdk.PasswordReset>().toEqualTypeOf<Contract.PasswordReset>();
    expectTypeOf<Sdk.Plan>().toEqualTypeOf<Contract.Plan>();
    expectTypeOf<Sdk.ResetRequested>().toEqualTypeOf<Contract.ResetRequested>();
    expectTypeOf<Sdk.Robot>().toEqualTypeOf<Contract.Robot>();
    expectTypeOf<Sdk.RobotCreate>().toEqualTypeOf<Contract.RobotCreate>();
    expectTypeOf<Sdk.RobotList>().toEqualTypeOf<Contract.RobotList>();
    expectTypeOf<Sdk.SignInRequest>().toEqualTypeOf<Contract.SignInRequest>();
    expectTypeOf<Sdk.SignUpRequest>().toEqualTypeOf<Contract.SignUpRequest>();
    expectTypeOf<Sdk.SqlCompareOp>().toEqualTypeOf<Contract.SqlCompareOp>();
    expectTypeOf<Sdk.SqlCondition>().toEqualTypeOf<Contract.SqlCondition>();
    expectTypeOf<Sdk.SqlResponse>().toEqualTypeOf<Contract.SqlResponse>();
    expectTypeOf<Sdk.SqlValue>().toEqualTypeOf<Contract.SqlValue>();
    expectTypeOf<Sdk.StoredDocument>().toEqualTypeOf<Contract.StoredDocument>();
    expectTypeOf<Sdk.User>().toEqualTypeOf<Contract.User>();
    expectTypeOf<Sdk.WebhookAttemptRecord>().toEqualTypeOf<Contract.WebhookAttemptRecord>();
    expectTypeOf<Sdk.WebhookCreateRequest>().toEqualTypeOf<Contract.WebhookCreateRequest>();
    expectTypeOf<Sdk.WebhookDeliveryRecord>().toEqualTypeOf<Contract.WebhookDeliveryRecord>();
    expectTypeOf<Sdk.WebhookDeliveryStatus>().toEqualTypeOf<Contract.WebhookDeliveryStatus>();
    expectTypeOf<Sdk.WebhookEvent>().toEqualTypeOf<Contract.WebhookEvent>();
    expectTypeOf<Sdk.WebhookEventType>().toEqualTypeOf<Contract.WebhookEventType>();
    expectTypeOf<Sdk.WebhookSecretRotationRecord>().toEqualTypeOf<Contract.WebhookSecretRotationRecord>();
    expectTypeOf<Sdk.WebhookStreamMessageRecord>().toEqualTypeOf<Contract.WebhookStreamMessageRecord>();
    expectTypeOf<Sdk.WebhookSubscriptionRecord>().toEqualTypeOf<Contract.WebhookSubscriptionRecord>();
    expectTypeOf<Sdk.StoredDocument<Order>>().toEqualTypeOf<Contract.StoredDocument<Order>>();
    expectTypeOf<Sdk.DocumentPage<Order>>().toEqualTypeOf<Contract.DocumentPage<Order>>();
    expectTypeOf<Sdk.SqlResponse<Order>>().toEqualTypeOf<Contract.SqlResponse<Order>>();
  });
});
