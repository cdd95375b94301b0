/** How the caller reaches one account (spec: rule 6, Authentication 8). */
export interface AccountAccess {
  id: string;
  /**
   * `main` and `linked` belong to the caller; `shared` was shared with the caller;
   * `linked_shared` is linked to a main account shared with the caller.
   */
  relation: "main" | "linked" | "shared" | "linked_shared";
  /** `owner` for the caller's own accounts, else the share's permission. */
  permission: "owner" | "viewer" | "editor";
  /** The main account whose workspace (tags, settings) this account belongs to. */
  workspaceId: string;
}

/** True for accounts the caller does not own (read-only for most writes). */
export function isSharedAccess(access: AccountAccess): boolean {
  return access.relation === "shared" || access.relation === "linked_shared";
}
