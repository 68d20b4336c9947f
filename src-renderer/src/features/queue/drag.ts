/** The drag's data type: a queued post's id (other drags, files or text, are not drops here). */
export const POST_DRAG_TYPE = 'application/x-postdesk-post';

/** Whether a drag over a target carries a queued post. */
export const carriesPost = (e: { readonly dataTransfer: DataTransfer | null }): boolean =>
  e.dataTransfer?.types.includes(POST_DRAG_TYPE) ?? false;
