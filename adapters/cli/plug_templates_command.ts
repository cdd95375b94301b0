/**
 * `threadline plug-templates create`: how an operator creates a plug template. The API
 * only lists them (supplement section 5: GET /v1/plug-templates; they are made in the
 * companion app, which this repository does not include), so this command stands in for
 * the app. `--media` attaches an upload of the account's workspace to the plug reply.
 */
import type { Services } from "../../core/context.ts";
import { checkAttachableMedia, markMediaAttached } from "../../core/media/attachable_media.ts";
import { createPlugTemplate } from "../../core/plug_templates/plug_templates.ts";
import { workspaceOfAccount } from "../../core/plug_templates/plug_templates_queries.ts";
import { type Args, requiredFlag, stringFlag } from "./args.ts";

/** Creates a plug template in the workspace of `--account`; answers its list record. */
export async function createPlugTemplateCommand(services: Services, args: Args) {
  const accountId = requiredFlag(args, "account");
  const workspaceId = await workspaceOfAccount(services.sql, accountId);
  if (!workspaceId) throw new Error(`Cannot find account "${accountId}"`);
  const mediaObjectKey = stringFlag(args, "media") ?? null;
  const now = new Date(services.clock.now());
  if (mediaObjectKey) await checkAttachableMedia(services.sql, services.media, workspaceId, [mediaObjectKey], { now });
  const data = await services.sql.begin(async (tx) => {
    const template = await createPlugTemplate(tx, workspaceId, { text: requiredFlag(args, "text"), mediaObjectKey });
    if (mediaObjectKey) await markMediaAttached(tx, [mediaObjectKey], now);
    return template;
  });
  return { data };
}
