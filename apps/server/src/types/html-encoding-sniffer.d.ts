declare module 'html-encoding-sniffer' {
  /**
   * The HTML Standard's encoding sniffing: BOM, then the transport layer's label, then a `<meta>`
   * in the first 1,024 bytes, then `defaultEncoding` (null: say that nothing was found).
   */
  export default function htmlEncodingSniffer(
    bytes: Uint8Array,
    options?: { xml?: boolean; transportLayerEncodingLabel?: string; defaultEncoding?: string | null },
  ): string | null;
}
