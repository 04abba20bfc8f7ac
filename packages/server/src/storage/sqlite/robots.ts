import type Database from 'better-sqlite3';
import type { NewRobot, RobotRow, RobotStore } from '../robots.js';

const COLUMNS = 'id, name, scopes, created_at AS createdAt';

type StoredRow = Omit<RobotRow, 'scopes'> & { scopes: string };

const toRobotRow = (row: StoredRow): RobotRow => ({ ...row, scopes: JSON.parse(row.scopes) });

/** Robots on SQLite. */
export class SqliteRobots implements RobotStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        'INSERT INTO robots (id, owner_id, name, scopes, created_at) VALUES (@id, @ownerId, @name, @scopes, @createdAt)',
      ),
      list: db.prepare<[string], StoredRow>(
        `SELECT ${COLUMNS} FROM robots WHERE owner_id = ? ORDER BY created_at DESC, rowid DESC`,
      ),
      get: db.prepare<[string, string], StoredRow>(
        `SELECT ${COLUMNS} FROM robots WHERE owner_id = ? AND id = ?`,
      ),
      // Its keys, and their usage, go with it (ON DELETE CASCADE), in this one statement's transaction.
      delete: db.prepare('DELETE FROM robots WHERE owner_id = ? AND id = ?'),
    };
  }

  async create(robot: NewRobot): Promise<void> {
    this.stmt.insert.run({ ...robot, scopes: JSON.stringify(robot.scopes) });
  }

  async list(ownerId: string): Promise<RobotRow[]> {
    return this.stmt.list.all(ownerId).map(toRobotRow);
  }

  async get(ownerId: string, robotId: string): Promise<RobotRow | null> {
    const row = this.stmt.get.get(ownerId, robotId);
    return row ? toRobotRow(row) : null;
  }

  async delete(ownerId: string, robotId: string): Promise<boolean> {
    return this.stmt.delete.run(ownerId, robotId).changes === 1;
  }
}
