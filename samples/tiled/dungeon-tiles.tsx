<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.11.0" name="dungeon-tiles" tilewidth="16" tileheight="16" tilecount="4" columns="4">
 <image source="dungeon-tiles.png" width="64" height="16"/>
 <tile id="1" type="ledge">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="12" width="12" height="4"/>
  </objectgroup>
 </tile>
 <tile id="3" type="spikes">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,16 8,4 16,16"/>
   </object>
  </objectgroup>
 </tile>
</tileset>
