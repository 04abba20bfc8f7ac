/** A new robot (service account). */
export interface NewRobot {
  id: string;
  ownerId: string;
  name: string;
  /** The most its keys may hold. */
  scopes: string[];
  createdAt: string;
}

/** A stored robot as its owner sees it. */
export interface RobotRow {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
}

/** Robots: named service identities owned by a user, which own API keys. */
export interface RobotStore {
  create(robot: NewRobot): Promise<void>;
  /** The robots of a user, newest first. */
  list(ownerId: string): Promise<RobotRow[]>;
  /** The robot when it belongs to this user, else null. */
  get(ownerId: string, robotId: string): Promise<RobotRow | null>;
  /** Removes the robot of this user and, in the same transaction, its keys; false when there was none. */
  delete(ownerId: string, robotId: string): Promise<boolean>;
}
