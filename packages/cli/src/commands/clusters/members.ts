import type { ClusterRole } from '@dataplatform/sdk';
import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';

const ROLES = ['owner', 'admin', 'developer', 'viewer'];

/** `dp clusters members …`: who may act on a cluster, and invitations. */
export function newClusterMembersCommand(f: Factory): Command {
  const list = new Command('list')
    .description("List a cluster's members and their roles")
    .argument('<cluster>', 'the cluster id')
    .action(async (cluster: string) => {
      const client = await f.client();
      const members = await attempt(`list members of "${cluster}"`, client.clusters.members.list(cluster));
      const out = await f.output();
      if (out.json) return void (await out.writeJson(members));
      if (!out.tty) {
        for (const member of members.data) await out.writeJsonLine(member);
        return;
      }
      await out.writeTable(
        ['user', 'email', 'role'],
        members.data.map((m) => [m.userId, m.email, m.role]),
      );
    });
  const invite = new Command('invite')
    .description('Invite someone by e-mail (the link works once, for seven days)')
    .argument('<cluster>', 'the cluster id')
    .argument('<email>', 'who to invite')
    .addOption(new Option('--role <role>', 'the role they get').choices(ROLES).makeOptionMandatory())
    .action(async (cluster: string, email: string, options: { role: ClusterRole }) => {
      const client = await f.client();
      const invitation = await attempt(
        `invite ${email}`,
        client.clusters.invitations.create(cluster, { email, role: options.role }),
      );
      const out = await f.output();
      if (out.json) await out.writeJson(invitation);
      out.success(
        `Invited ${invitation.email} as ${invitation.role}; the link expires ${invitation.expiresAt}`,
      );
    });
  const accept = new Command('accept')
    .description('Accept an invitation with the token of its link')
    .argument('<token>', 'the `token` of the e-mailed link')
    .action(async (token: string) => {
      const client = await f.client();
      const member = await attempt('accept the invitation', client.clusters.invitations.accept(token));
      const out = await f.output();
      if (out.json) await out.writeJson(member);
      out.success(`Joined as ${member.role}`);
    });
  const role = new Command('set-role')
    .description("Change a member's role")
    .argument('<cluster>', 'the cluster id')
    .argument('<user>', 'the member’s user id')
    .addOption(new Option('--role <role>', 'the new role').choices(ROLES).makeOptionMandatory())
    .action(async (cluster: string, user: string, options: { role: ClusterRole }) => {
      const client = await f.client();
      const member = await attempt(
        `change the role of ${user}`,
        client.clusters.members.update(cluster, user, options.role),
      );
      const out = await f.output();
      if (out.json) await out.writeJson(member);
      out.success(`${member.email} is ${member.role}`);
    });
  const remove = new Command('remove')
    .description('Remove a member (your own id: leave); their keys in the cluster stop at once')
    .argument('<cluster>', 'the cluster id')
    .argument('<user>', 'the member’s user id')
    .action(async (cluster: string, user: string) => {
      const client = await f.client();
      const answer = await attempt(`remove ${user}`, client.clusters.members.remove(cluster, user));
      const out = await f.output();
      if (out.json) await out.writeJson(answer);
      out.success(`Removed ${answer._id}`);
    });
  withExamples(list, ['dp clusters members list cls_01J…']);
  withExamples(invite, ['dp clusters members invite cls_01J… ana@example.com --role developer']);
  withExamples(accept, ['dp clusters members accept 3q2-Fk…']);
  withExamples(role, ['dp clusters members set-role cls_01J… usr_01J… --role viewer']);
  withExamples(remove, ['dp clusters members remove cls_01J… usr_01J…']);
  const command = new Command('members')
    .description('List, invite, change and remove the members of a cluster')
    .addCommand(list, { isDefault: true })
    .addCommand(invite)
    .addCommand(accept)
    .addCommand(role)
    .addCommand(remove);
  return withExamples(command, [
    'dp clusters members list cls_01J…',
    'dp clusters members invite cls_01J… ana@example.com --role developer',
    'dp clusters members set-role cls_01J… usr_01J… --role viewer',
  ]);
}
