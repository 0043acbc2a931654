import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders `children` once the placeholder comes into view (or at once where the browser has no
 * IntersectionObserver), and `placeholder` until then. What sits below the fold then costs nothing
 * at first paint: neither its code (a `lazy` child's chunk loads when it is rendered) nor its
 * requests (its queries start when it mounts) nor its rendering. The placeholder should have the
 * final size of the content, so nothing moves when it arrives.
 */
export function WhenVisible({ placeholder, children }: { placeholder: ReactNode; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [isVisible, setIsVisible] = useState(() => typeof IntersectionObserver === 'undefined');

  useEffect(() => {
    if (isVisible || !ref.current) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setIsVisible(true);
    });
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [isVisible]);

  return isVisible ? children : <div ref={ref}>{placeholder}</div>;
}
