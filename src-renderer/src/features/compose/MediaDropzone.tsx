import { useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { IconUpload } from '../../components/icons';
import { collectDroppedFiles } from './collect-files';

/**
 * Drop files or folders here, or pick them; everything goes to the media store's pipeline. With `onPick`
 * (a host with its own file dialog) the buttons open that dialog; otherwise the browser's file picker.
 */
export function MediaDropzone({
  onFiles,
  onPick,
  busy,
  compact = false,
}: {
  readonly onFiles: (files: File[]) => void;
  readonly onPick?: ((folder: boolean) => void) | undefined;
  readonly busy: boolean;
  /** Files are in the post already: one line, so the post itself has the room. */
  readonly compact?: boolean;
}) {
  const [over, setOver] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const onDrop = async (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    onFiles(await collectDroppedFiles(e.dataTransfer));
  };
  /** Files from either picker; the input is emptied so the same file can be chosen again. */
  const takeChosen = (e: ChangeEvent<HTMLInputElement>) => {
    onFiles([...(e.target.files ?? [])]);
    e.target.value = '';
  };

  return (
    <div
      className={`drop-zone dropzone${over ? ' drop-zone--over dropzone--over' : ''}${compact ? ' dropzone--compact' : ''}`}
      role="group"
      aria-label="Media drop zone"
      aria-describedby="dropzone-hint"
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => void onDrop(e)}
    >
      <IconUpload size={compact ? 16 : 22} />
      <p className="dropzone__title">
        {busy ? 'Adding files…' : compact ? 'Drop more files' : 'Drop images, MP4s or folders'}
      </p>
      <p className="dropzone__hint" id="dropzone-hint">
        JPEG, PNG, WebP up to 15 MB · MP4 up to 200 MB · up to 10 per post
      </p>
      <div className="btn-row">
        <button
          type="button"
          className="btn btn--small"
          onClick={() => (onPick ? onPick(false) : fileInput.current?.click())}
        >
          Choose files
        </button>
        <button
          type="button"
          className="btn btn--small btn--ghost"
          onClick={() => (onPick ? onPick(true) : folderInput.current?.click())}
        >
          Choose a folder
        </button>
      </div>
      <input
        ref={fileInput}
        type="file"
        multiple
        accept="image/jpeg,image/png,image/webp,video/mp4"
        hidden
        aria-label="Choose media files"
        onChange={takeChosen}
      />
      <input
        ref={(el) => {
          folderInput.current = el;
          // `webkitdirectory` is not in React's attribute list; set it on the element.
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        aria-label="Choose a media folder"
        onChange={takeChosen}
      />
    </div>
  );
}
