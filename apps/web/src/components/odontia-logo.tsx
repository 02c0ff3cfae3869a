interface OdontiaLogoProps {
  size?: number;
  className?: string;
  title?: string;
}

/** The Odontia mark: a rounded tooth on a blue tile. Inline SVG so nothing is fetched. */
export function OdontiaLogo({ size = 32, className, title }: OdontiaLogoProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 32 32"
      className={className}
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      focusable="false"
    >
      <defs>
        <linearGradient id="odontia-logo-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#3b82f6" />
          <stop offset="1" stopColor="#0e9f9a" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#odontia-logo-bg)" />
      <path
        fill="#fff"
        d="M11.2 6.5c-3 0-5.2 2.4-5.2 5.6 0 2.6.9 4.4 1.7 6.3.7 1.7 1 3.6 1.3 5.6.3 1.9 1 3.5 2.3 3.5 1.5 0 1.9-1.8 2.3-3.7.3-1.6.7-3.2 2.4-3.2s2.1 1.6 2.4 3.2c.4 1.9.8 3.7 2.3 3.7 1.3 0 2-1.6 2.3-3.5.3-2 .6-3.9 1.3-5.6.8-1.9 1.7-3.7 1.7-6.3 0-3.2-2.2-5.6-5.2-5.6-1.9 0-3 .9-4.8.9s-2.9-.9-4.8-.9Z"
      />
      <path
        fill="none"
        stroke="#0e9f9a"
        strokeOpacity=".35"
        strokeWidth="1.2"
        strokeLinecap="round"
        d="M12 10.5c1.4.6 2.7.9 4 .9"
      />
    </svg>
  );
}

/** Logo plus the word mark, used by the plain (authentication) layout and the sidebar. */
export function OdontiaWordmark({ size = 32 }: { size?: number }) {
  return (
    <span className="odontia-wordmark">
      <OdontiaLogo size={size} />
      <span className="odontia-wordmark-text">Odontia</span>
    </span>
  );
}
