import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../stores/use-app-store';
import { useMediaStore } from '../../stores/use-media-store';
import { MediaDropzone } from './MediaDropzone';
import { MediaLibrary } from './MediaLibrary';
import { MediaList } from './MediaList';

/** The post's media: the drop zone (or the host's file dialog), the files with their checks and uploads, the library. */
export function ComposeMedia() {
  const { count, adding, addDropped, pick } = useMediaStore(
    useShallow((s) => ({ count: s.items.length, adding: s.adding, addDropped: s.addDropped, pick: s.pick })),
  );
  const fileDialog = useAppStore((s) => s.info?.file_dialog ?? false);
  return (
    <div className="compose__media">
      <MediaDropzone
        onFiles={(files) => void addDropped(files)}
        onPick={fileDialog ? (folder) => void pick(folder) : undefined}
        busy={adding}
        compact={count > 0}
      />
      <MediaList />
      <MediaLibrary />
    </div>
  );
}
