import type { Sql } from 'postgres';
import type { NewRobot, RobotRow, RobotStore } from '../robots.js';

/** Robots on PostgreSQL. */
export class PostgresRobots implements RobotStore {
  constructor(private readonly sql: Sql) {}

  async create(robot: NewRobot): Promise<void> {
    await this.sql`INSERT INTO robots (id, owner_id, name, scopes, created_at)
                   VALUES (${robot.id}, ${robot.ownerId}, ${robot.name}, ${this.sql.json(robot.scopes)}, ${robot.createdAt})`;
  }

  async list(ownerId: string): Promise<RobotRow[]> {
    const rows = await this.sql<RobotRow[]>`
      SELECT id, name, scopes, created_at AS "createdAt" FROM robots WHERE owner_id = ${ownerId}
      ORDER BY created_at DESC, seq DESC`;
    return [...rows];
  }

  async get(ownerId: string, robotId: string): Promise<RobotRow | null> {
    const [row] = await this.sql<RobotRow[]>`
      SELECT id, name, scopes, created_at AS "createdAt" FROM robots WHERE owner_id = ${ownerId} AND id = ${robotId}`;
    return row ?? null;
  }

  async delete(ownerId: string, robotId: string): Promise<boolean> {
    // Its keys, and their usage, go with it (ON DELETE CASCADE), in this one statement's transaction.
    const result = await this.sql`DELETE FROM robots WHERE owner_id = ${ownerId} AND id = ${robotId}`;
    return result.count === 1;
  }
}
