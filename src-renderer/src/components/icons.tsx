import { Fragment, type ReactElement, type ReactNode, type SVGProps } from 'react';

type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { readonly size?: number };

function Svg({ size = 16, children, ...rest }: IconProps & { readonly children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

/** An icon drawn by these outlines on the 24-unit grid: SVG path data, or a shape (a circle, a rectangle). */
function outline(...parts: readonly (string | ReactElement)[]) {
  return function Icon(p: IconProps) {
    return (
      <Svg {...p}>
        {parts.map((part, i) =>
          // The parts are fixed for an icon: their place is their identity.
          typeof part === 'string' ? <path key={i} d={part} /> : <Fragment key={i}>{part}</Fragment>,
        )}
      </Svg>
    );
  };
}

export const IconCompose = outline('M12 20h9', 'M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z');
export const IconHome = outline('m3 10 9-7 9 7', 'M5 9v11h14V9', 'M10 20v-6h4v6');
export const IconList = outline('M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01');
export const IconCalendar = outline(
  <rect x="3" y="4" width="18" height="18" rx="2" />,
  'M16 2v4M8 2v4M3 10h18',
);
export const IconLayers = outline('m12 2 10 5-10 5L2 7Z', 'm2 17 10 5 10-5M2 12l10 5 10-5');
export const IconDoc = outline(
  'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8Z',
  'M14 2v6h6M16 13H8M16 17H8M10 9H8',
);
export const IconChart = outline('M3 3v18h18', 'm19 9-5 5-4-4-3 3');
export const IconUsers = outline(
  'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2',
  <circle cx="9" cy="7" r="4" />,
  'M22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
);
export const IconBook = outline(
  'M4 19.5A2.5 2.5 0 0 1 6.5 17H20',
  'M6.5 2H20v20H6.5A2.5 2.5 0 0 1 4 19.5v-15A2.5 2.5 0 0 1 6.5 2Z',
);
export const IconBolt = outline('M13 2 3 14h9l-1 8 10-12h-9Z');
export const IconSpark = outline(
  'M12 3v4M12 17v4M3 12h4M17 12h4M6.3 6.3l2.8 2.8M14.9 14.9l2.8 2.8M6.3 17.7l2.8-2.8M14.9 9.1l2.8-2.8',
);
export const IconSettings = outline(
  <circle cx="12" cy="12" r="3" />,
  'M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z',
);
export const IconUpload = outline('M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4', 'm17 8-5-5-5 5M12 3v12');
export const IconX = outline('M18 6 6 18M6 6l12 12');
export const IconAlert = outline(
  'M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z',
  'M12 9v4M12 17h.01',
);
export const IconInbox = outline(
  'M22 12h-6l-2 3h-4l-2-3H2',
  'M5.5 5.1 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.5-6.9A2 2 0 0 0 16.8 4H7.2a2 2 0 0 0-1.7 1.1Z',
);
export const IconCheck = outline('M20 6 9 17l-5-5');
export const IconRefresh = outline(
  'M21 12a9 9 0 0 1-15.5 6.2L3 16M3 12a9 9 0 0 1 15.5-6.2L21 8',
  'M21 3v5h-5M3 21v-5h5',
);
export const IconPlay = outline('m6 3 14 9-14 9Z');
export const IconFilm = outline(
  <rect x="2" y="2" width="20" height="20" rx="2.2" />,
  'M7 2v20M17 2v20M2 12h20M2 7h5M2 17h5M17 17h5M17 7h5',
);
export const IconPlug = outline('M12 22v-5M9 8V2M15 8V2M18 8v5a6 6 0 0 1-12 0V8Z');
export const IconClock = outline(<circle cx="12" cy="12" r="10" />, 'M12 6v6l4 2');
