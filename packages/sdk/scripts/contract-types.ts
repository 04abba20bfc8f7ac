// Writes src/contract-types.ts: the contract's types the SDK uses, written out as plain TypeScript. The published
// SDK then needs neither the contract nor zod, not even for its declarations. With --check, fails when stale.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { writeGenerated } from '../../../scripts/generated-file.js';

/** The contract's types that the SDK's API names; types they refer to are added as they are found. */
const NAMES = [
  'ActivityEntry',
  'ApiKey',
  'ApiKeyCreate',
  'ApiKeyList',
  'ApiKeyUsageEntry',
  'ApiKeyWithSecret',
  'AuthSession',
  'Backup',
  'BackupList',
  'BackupSchedule',
  'BackupScheduleUpdate',
  'BatchPredictionCreate',
  'BillingAccount',
  'CheckoutRequest',
  'Cluster',
  'ClusterCreate',
  'ClusterList',
  'ClusterMember',
  'ClusterMemberList',
  'ClusterRole',
  'ClusterUpdate',
  'CollectionInfo',
  'CollectionInfoList',
  'CollectionQuery',
  'CurrentSession',
  'Dataset',
  'DatasetCreate',
  'DatasetList',
  'DatasetRows',
  'DeletedResponse',
  'DeviceAuthorization',
  'DeviceDecision',
  'DocumentPage',
  'ErrorCode',
  'ErrorResponse',
  'FieldSummary',
  'FunctionCreate',
  'FunctionDeploy',
  'FunctionDetail',
  'FunctionList',
  'FunctionRecord',
  'ImportFormat',
  'Index',
  'IndexCreate',
  'IndexList',
  'InferredSchema',
  'Invitation',
  'Invocation',
  'InvocationStatus',
  'InvocationTrigger',
  'InvokeResult',
  'InvitationCreate',
  'Invoice',
  'InvoiceLine',
  'InvoiceList',
  'IpAllowlist',
  'Job',
  'JobList',
  'JobProgress',
  'JobRowError',
  'JobStatus',
  'LoggedOut',
  'MetricPoint',
  'MetricSeries',
  'MetricsSummary',
  'Notification',
  'NotificationList',
  'NotificationPreferences',
  'NotificationPreferencesUpdate',
  'NotificationsRead',
  'Model',
  'ModelCreate',
  'ModelCreateInCluster',
  'ModelList',
  'ModelMetrics',
  'Passkey',
  'PasskeyList',
  'PasskeyOptions',
  'PasswordReset',
  'PredictRequest',
  'PredictResult',
  'Plan',
  'RedirectUrl',
  'RequestLogEntry',
  'RequestLogList',
  'ResetRequested',
  'Robot',
  'RobotCreate',
  'RobotList',
  'Settings',
  'SettingsPatch',
  'SignInRequest',
  'SignUpRequest',
  'SqlCondition',
  'SqlResponse',
  'StoredDocument',
  'UsageDay',
  'UsageList',
  'Trigger',
  'TriggerCreate',
  'TriggerRun',
  'TriggerSource',
  'TriggerTarget',
  'TriggerUpdate',
  'User',
  'Validator',
  'ValidatorCheckResult',
  'ValidatorDeleted',
  'ValidatorInput',
  'WebhookAttemptRecord',
  'WebhookCreateRequest',
  'WebhookDeliveryRecord',
  'WebhookDeliveryStatus',
  'WebhookEvent',
  'WebhookEventType',
  'WebhookSecretRotationRecord',
  'WebhookStreamMessageRecord',
  'WebhookSubscriptionRecord',
];

const root = fileURLToPath(new URL('..', import.meta.url));
const target = `${root}src/contract-types.ts`;
const entry = fileURLToPath(new URL('../../contract/src/index.ts', import.meta.url));

const program = ts.createProgram([entry], {
  strict: true,
  exactOptionalPropertyTypes: false,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
});
const checker = program.getTypeChecker();
const contract = checker.getSymbolAtLocation(program.getSourceFile(entry) as ts.SourceFile) as ts.Symbol;
const exported = new Map(checker.getExportsOfModule(contract).map((symbol) => [symbol.name, symbol]));
const flags =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.InTypeAlias |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

const queue = [...NAMES];
const declarations = new Map<string, string>();
while (queue.length > 0) {
  const name = queue.shift() as string;
  if (declarations.has(name)) continue;
  declarations.set(name, declare(name));
  // Named types the text still refers to (a union member, a recursive type) are declared too.
  for (const [word] of (declarations.get(name) as string).matchAll(/\b[A-Z]\w*\b/g)) {
    if (exported.has(word) && !declarations.has(word) && !queue.includes(word)) queue.push(word);
  }
}

function declare(name: string): string {
  const symbol = exported.get(name);
  if (!symbol) throw new Error(`@dataplatform/contract exports no ${name}`);
  const original = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const node = original.declarations?.find(
    (d) => ts.isTypeAliasDeclaration(d) || ts.isInterfaceDeclaration(d),
  ) as ts.TypeAliasDeclaration | ts.InterfaceDeclaration | undefined;
  if (!node) throw new Error(`${name} is not a type of @dataplatform/contract`);
  const own = ts.getJSDocCommentsAndTags(node).find(ts.isJSDoc);
  const doc = (ts.getTextOfJSDocComment(own?.comment) ?? '').trim();
  const comment = doc ? `/** ${doc.replace(/\n/g, '\n * ')} */\n` : '';
  // An interface is written by hand already: it is kept as it is, and the types it names are declared too.
  if (ts.isInterfaceDeclaration(node)) return `${comment}${checked(name, node.getText())}`;
  const parameters = node.typeParameters ? `<${node.typeParameters.map((p) => p.getText()).join(', ')}>` : '';
  const text = checker.typeToString(checker.getDeclaredTypeOfSymbol(original), undefined, flags);
  return `${comment}export type ${name}${parameters} = ${checked(name, text)};`;
}

/** The text, once sure it names no schema type (those would need zod). */
function checked(name: string, text: string): string {
  if (/\bimport\(|\bz\.|\$[A-Za-z]/.test(text)) {
    throw new Error(`${name} still refers to schema types after expansion: ${text.slice(0, 200)}`);
  }
  return text;
}

const header =
  '// Generated by scripts/contract-types.ts from @dataplatform/contract: do not edit; `pnpm codegen` rewrites it.\n' +
  '// The contract derives these from its zod schemas; here they are plain types, so the SDK ships without zod.\n\n';
const body = [...declarations.keys()]
  .sort()
  .map((name) => declarations.get(name))
  .join('\n\n');
const text = format(`${header}${body}\n`);

function format(source: string): string {
  const require = createRequire(`${root}../../package.json`);
  const biome = require.resolve('@biomejs/biome/bin/biome');
  return execFileSync(process.execPath, [biome, 'format', `--stdin-file-path=${target}`], {
    input: source,
    encoding: 'utf8',
  });
}

writeGenerated(target, text, 'packages/sdk/src/contract-types.ts');
